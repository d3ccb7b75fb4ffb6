"""The rules, the policies as data, the state layout and what a player knows."""
