#include "diff.h"
struct Shape {
  virtual ~Shape() {}
  virtual int area() const = 0;
  virtual const char* name() const { return "shape"; }
  int twice() const { return 2 * area(); }
};
struct Rect : Shape {
  int w, h;
  Rect(int a, int b) : w(a), h(b) {}
  int area() const override { return w * h; }
  const char* name() const override { return "rect"; }
};
struct Sq : Rect {
  explicit Sq(int s) : Rect(s, s) {}
  int area() const override { return Rect::area() + 1; }
};
struct Tri : Shape {
  int b, h;
  Tri(int x, int y) : b(x), h(y) {}
  int area() const override { return b * h / 2; }
  const char* name() const override { return "tri"; }
};
// The dynamic type depends on a runtime value and the calls sit in non-inlined functions, so
// -O2 cannot devirtualize them: every call below loads the vtable and jumps through a register.
__attribute__((noinline)) static Shape* make(int kind, int a) {
  switch (kind) {
    case 0: return new Rect(a, 4);
    case 1: return new Sq(a);
    default: return new Tri(a, 9);
  }
}
__attribute__((noinline)) static int show(const Shape* p) {
  printf("%s area=%d twice=%d\n", p->name(), p->area(), p->twice());
  return p->area();
}
int main() {
  Shape* s[] = {make(opaque(0), 3), make(opaque(1), 5), make(opaque(2), 7)};
  int sum = 0;
  for (Shape* p : s) sum += show(p);
  for (Shape* p : s) delete p;
  printf("sum=%d\n", sum);
  return 0;
}
