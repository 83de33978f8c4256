"""The Qt-free core that the CLI, the GUI and the tests all drive."""
