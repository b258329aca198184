// Moved to hw/base/time.hpp (issue 13); this forwarding header goes once nothing includes it.
#pragma once
#include "hw/base/time.hpp"
