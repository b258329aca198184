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
int main() {
  Shape* s[] = {new Rect(opaque(3), 4), new Sq(opaque(5)), new Tri(opaque(7), 9)};
  int sum = 0;
  for (Shape* p : s) {
    printf("%s area=%d twice=%d\n", p->name(), p->area(), p->twice());
    sum += p->area();
  }
  for (Shape* p : s) delete p;
  printf("sum=%d\n", sum);
  return 0;
}
