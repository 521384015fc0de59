import os
import sys

# test modules import their helpers from cli_helpers.py beside this file
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
