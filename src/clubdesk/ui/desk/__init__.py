"""The registration desk screens: entrants and payments, the check-in screen."""
