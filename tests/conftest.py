"""Test configuration shared by every folder of tests (helpers live beside this file)."""
