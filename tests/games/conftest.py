# Er Giò's states are copied by tests of several folders here (the strong bots' too): compiled
# by mypyc, they need copyreg to be copied (tests/games/ergio/helpers.py)
from tests.games.ergio.helpers import copy_compiled_states

copy_compiled_states()
