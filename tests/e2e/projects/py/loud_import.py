"""Fixture: importing this module has an effect (it writes imported.txt beside itself);
modstate.py never imports it."""
import pathlib

pathlib.Path(__file__).with_name("imported.txt").write_text("imported")
