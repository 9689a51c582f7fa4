"""What every HTTP request goes through, shared by the apps."""
