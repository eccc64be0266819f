SortedUnion.sortedUnion(new int[] {1, 3, 5}, new int[] {2, 3, 4}) == new int[] {1, 2, 3, 4, 5}
SortedUnion.sortedUnion(new int[] {5, 1, 3}, new int[] {4, 2}) == new int[] {1, 2, 3, 4, 5}
SortedUnion.sortedUnion(new int[] {1, 1, 2}, new int[] {2, 2}) == new int[] {1, 1, 2, 2, 2}  // wrong
SortedUnion.sortedUnion(new int[] {}, new int[] {3, 1}) == new int[] {1, 3}
SortedUnion.sortedUnion(new int[] {}, new int[] {}) == new int[] {}
SortedUnion.sortedUnion(new int[] {-2, 3}, new int[] {1, -5}) == new int[] {-5, -2, 1, 3}
SortedUnion.sortedUnion(new int[] {7}, new int[] {7}) == new int[] {7}
SortedUnion.sortedUnion(new int[] {3, 2, 1}, new int[] {}) == new int[] {1, 2, 3}
SortedUnion.sortedUnion(new int[] {10, 20}, new int[] {30, 40}) == new int[] {10, 20, 30, 40}
SortedUnion.sortedUnion(new int[] {4, 4, 4}, new int[] {1}) == new int[] {1, 4}
SortedUnion.sortedUnion(new int[] {0, -1}, new int[] {1}) == new int[] {-1, 0, 1}
SortedUnion.sortedUnion(new int[] {2, 9}, new int[] {5, 1}) == new int[] {2, 9, 5, 1}  // wrong
SortedUnion.sortedUnion(new int[] {1, 2, 3}, new int[] {1, 2, 3}) == new int[] {1, 2, 3}
SortedUnion.sortedUnion(new int[] {100, -100}, new int[] {0}) == new int[] {-100, 0, 100}
SortedUnion.sortedUnion(new int[] {6, 5}, new int[] {5, 6}) == new int[] {5, 6}
SortedUnion.sortedUnion(new int[] {1, 3}, new int[] {2}) == new int[] {1, 2, 3}
SortedUnion.sortedUnion(new int[] {8, 3}, new int[] {3, 8, 1}) == new int[] {1, 3, 8}
SortedUnion.sortedUnion(null, new int[] {1}) == new int[] {}  // undefined
