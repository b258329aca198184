#include "two.h"

__attribute__((noinline)) int from_b(int x) { return twice(x); }
