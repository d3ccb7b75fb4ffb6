"""The standard report: Markdown, figures and CSV files written from study results."""
