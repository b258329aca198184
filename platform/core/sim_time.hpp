// Moved to hw/base/sim_time.hpp (issue 13); this forwarding header goes once nothing includes it.
#pragma once
#include "hw/base/sim_time.hpp"
