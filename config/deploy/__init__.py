"""What `make run` and `make serve` run: their Procfiles, the supervisor over them (supervise),
nginx's templates (render_nginx)."""
