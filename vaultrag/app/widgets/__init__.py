"""Widgets of the main window; each is a view of core value objects (QueryTrace, Diagnosis, Health)."""
