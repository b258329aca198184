#include "diff.h"
enum class St { Start, Int, Frac, Exp, Err };
// Tiny tokenizer: classifies numbers in a string.
static int classify(const char* s, int* ints, int* reals) {
  St st = St::Start; int tokens = 0;
  for (const char* p = s;; ++p) {
    const char c = *p;
    const bool digit = c >= '0' && c <= '9';
    const bool end = c == ' ' || c == 0;
    switch (st) {
      case St::Start: st = digit ? St::Int : (end ? St::Start : St::Err); break;
      case St::Int: if (end) { ++*ints; ++tokens; st = St::Start; } else if (c == '.') st = St::Frac; else if (c == 'e') st = St::Exp; else if (!digit) st = St::Err; break;
      case St::Frac: if (end) { ++*reals; ++tokens; st = St::Start; } else if (c == 'e') st = St::Exp; else if (!digit) st = St::Err; break;
      case St::Exp: if (end) { ++*reals; ++tokens; st = St::Start; } else if (!digit) st = St::Err; break;
      case St::Err: if (end) { ++tokens; st = St::Start; } break;
    }
    if (!c) break;
  }
  return tokens;
}
int main() {
  int ints = 0, reals = 0;
  const int t = classify("12 3.5 7e9 x1 400 0.25e3 ab 99", &ints, &reals);
  printf("tokens=%d ints=%d reals=%d\n", t, ints, reals);
  return 0;
}
