"""search's channels: each one file behind the ``Channel`` protocol (protocol.py), their names
declared once (names.py), and the fusion that runs them (fusion.py)."""
