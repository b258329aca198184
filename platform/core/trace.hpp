// Moved to hw/base/trace.hpp (issue 13); this forwarding header goes once nothing includes it.
#pragma once
#include "hw/base/trace.hpp"
