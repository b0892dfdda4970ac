// SwiftPM needs one source file in a C target; the header is all there is.
#include "CFuzzerDriver.h"
