class MinCost {
    /**
     * Return the minimum cost of a path from cell (0, 0) to cell (m, n) of
     * the cost matrix, moving one cell right, down or diagonally down-right
     * at a time. A path costs the sum of the cells it visits, both ends
     * included.
     */
    public static int minCost(int[][] cost, int m, int n) {
    }
}
