"""The headless commands, one module each; none imports Textual."""
