MinCost.minCost(new int[][] {{1, 2, 3}, {4, 8, 2}, {1, 5, 3}}, 2, 2) == 8
MinCost.minCost(new int[][] {{2, 3, 4}, {5, 9, 3}, {2, 6, 4}}, 2, 2) == 12
MinCost.minCost(new int[][] {{3, 4, 5}, {6, 10, 4}, {3, 7, 5}}, 2, 2) == 15  // wrong
MinCost.minCost(new int[][] {{1, 2}, {3, 4}}, 1, 1) == 5
MinCost.minCost(new int[][] {{5}}, 0, 0) == 5
MinCost.minCost(new int[][] {{1, 2, 3}}, 0, 2) == 6
MinCost.minCost(new int[][] {{1}, {2}, {3}}, 2, 0) == 6
MinCost.minCost(new int[][] {{1, 9, 9}, {1, 9, 9}, {1, 1, 1}}, 2, 2) == 4
MinCost.minCost(new int[][] {{1, 1, 9}, {9, 9, 1}, {9, 9, 1}}, 2, 2) == 4
MinCost.minCost(new int[][] {{1, 2, 3}, {4, 8, 2}, {1, 5, 3}}, 1, 1) == 9
MinCost.minCost(new int[][] {{0, 0}, {0, 0}}, 1, 1) == 0
MinCost.minCost(new int[][] {{7, 1}, {1, 7}}, 1, 1) == 8  // wrong
MinCost.minCost(new int[][] {{1, 3, 1}, {1, 5, 1}, {4, 2, 1}}, 2, 2) == 5
MinCost.minCost(new int[][] {{1, 2, 3}, {4, 5, 6}}, 1, 2) == 9
MinCost.minCost(new int[][] {{1, 2, 3}, {4, 8, 2}, {1, 5, 3}}, 0, 2) == 6
MinCost.minCost(new int[][] {{2, 2}, {2, 2}}, 1, 1) == 4
MinCost.minCost(new int[][] {{1, 100}, {100, 1}}, 1, 1) == 2
MinCost.minCost(new int[][] {{1, 2}, {3, 4}}, 2, 2) == 0  // undefined
