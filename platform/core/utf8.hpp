// Moved to hw/base/utf8.hpp (issue 13); this forwarding header goes once nothing includes it.
#pragma once
#include "hw/base/utf8.hpp"
