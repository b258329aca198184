// exit(256): a code that does not fit a process exit status (it would read as 0, success).
#include "fw/fw.h"
int main() {
  exit(256);
  return 0;
}
