"""What `make run` and `make serve` run: their Procfiles, supervisor, nginx's templates."""
