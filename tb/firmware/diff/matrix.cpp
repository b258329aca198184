#include "diff.h"
#define N 12
static int A[N][N], B[N][N], C[N][N];
int main() {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) { A[i][j] = (i * 7 + j * 3) % 11 - 5; B[i][j] = (i * j + 1) % 9 - 4; }
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      int s = 0;
      for (int k = 0; k < N; ++k) s += A[i][k] * B[k][j];
      C[i][j] = s;
    }
  int tr = 0; unsigned h = 0;
  for (int i = 0; i < N; ++i) { tr += C[i][i]; for (int j = 0; j < N; ++j) h = h * 31u + static_cast<unsigned>(C[i][j]); }
  printf("trace=%d h=%u c00=%d c%d%d=%d\n", tr, h, C[0][0], N - 1, N - 1, C[N - 1][N - 1]);
  return 0;
}
