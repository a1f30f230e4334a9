package poll

import ()
