"""Language models that write answers: the Generator protocol, its backends, and the registry that picks one."""
