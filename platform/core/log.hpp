// Moved to hw/base/log.hpp (issue 13); this forwarding header goes once nothing includes it.
#pragma once
#include "hw/base/log.hpp"
