"""Helpers that several test files share (a test file never imports another)."""
