from tests.games.sanmarco.helpers import copy_compiled_states

copy_compiled_states()
