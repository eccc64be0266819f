class MinCost {
    public static int minCost(int[][] cost, int m, int n) {
        int[][] d = new int[m + 1][n + 1];
        for (int i = 0; i <= m; i++) {
            for (int j = 0; j <= n; j++) {
                int best = i == 0 && j == 0 ? 0 : Integer.MAX_VALUE;
                if (i > 0) best = Math.min(best, d[i - 1][j]);
                if (j > 0) best = Math.min(best, d[i][j - 1]);
                if (i > 0 && j > 0) best = Math.min(best, d[i - 1][j - 1]);
                d[i][j] = best + cost[i][j];
            }
        }
        return d[m][n];
    }
}
