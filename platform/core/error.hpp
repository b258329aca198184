// Moved to hw/base/error.hpp (issue 13); this forwarding header goes once nothing includes it.
#pragma once
#include "hw/base/error.hpp"
