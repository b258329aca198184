// Moved to hw/base/io.hpp (issue 13); this forwarding header goes once nothing includes it.
#pragma once
#include "hw/base/io.hpp"
