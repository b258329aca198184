// Moved to hw/base/params.hpp (issue 13); this forwarding header goes once nothing includes it.
#pragma once
#include "hw/base/params.hpp"
