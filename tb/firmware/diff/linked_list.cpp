#include "diff.h"
struct Node { int v; Node* next; };
static Node* push(Node* h, int v) { Node* n = new Node; n->v = v; n->next = h; return n; }
static Node* reverse(Node* h) { Node* r = nullptr; while (h) { Node* n = h->next; h->next = r; r = h; h = n; } return r; }
static Node* merge(Node* a, Node* b) {
  Node head{0, nullptr}; Node* t = &head;
  while (a && b) { if (a->v <= b->v) { t->next = a; a = a->next; } else { t->next = b; b = b->next; } t = t->next; }
  t->next = a ? a : b;
  return head.next;
}
static Node* msort(Node* h) {
  if (!h || !h->next) return h;
  Node* slow = h; Node* fast = h->next;
  while (fast && fast->next) { slow = slow->next; fast = fast->next->next; }
  Node* b = slow->next; slow->next = nullptr;
  return merge(msort(h), msort(b));
}
int main() {
  Node* h = nullptr;
  unsigned s = 7;
  for (int i = 0; i < 100; ++i) { s = s * 1664525u + 1013904223u; h = push(h, static_cast<int>(s >> 20)); }
  h = reverse(h);
  printf("first=%d\n", h->v);
  h = msort(h);
  unsigned hash = 0; int n = 0, ok = 1, prev = -1;
  for (Node* p = h; p; p = p->next) { hash = hash * 31u + static_cast<unsigned>(p->v); ++n; if (p->v < prev) ok = 0; prev = p->v; }
  printf("n=%d ok=%d hash=%u min=%d max=%d\n", n, ok, hash, h->v, prev);
  while (h) { Node* nx = h->next; delete h; h = nx; }
  return 0;
}
