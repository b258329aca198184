// Moved to hw/base/wakeup.hpp (issue 13); this forwarding header goes once nothing includes it.
#pragma once
#include "hw/base/wakeup.hpp"
