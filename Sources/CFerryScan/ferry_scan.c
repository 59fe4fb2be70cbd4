// The classifier is a static inline function in include/ferry_scan.h; a C
// target needs one source file.
#include "ferry_scan.h"
