// candidate count=4 correct
class MinCost {
    public static int minCost(int[][] cost, int m, int n) {
        int[][] tc = new int[m + 1][n + 1];
        tc[0][0] = cost[0][0];
        for (int i = 1; i <= m; i++) tc[i][0] = tc[i - 1][0] + cost[i][0];
        for (int j = 1; j <= n; j++) tc[0][j] = tc[0][j - 1] + cost[0][j];
        for (int i = 1; i <= m; i++)
            for (int j = 1; j <= n; j++)
                tc[i][j] = Math.min(tc[i - 1][j - 1], Math.min(tc[i - 1][j], tc[i][j - 1])) + cost[i][j];
        return tc[m][n];
    }
}

// candidate count=2 correct
import java.util.*;

class MinCost {
    public static int minCost(int[][] cost, int m, int n) {
        Map<Long, Integer> memo = new HashMap<>();
        return go(cost, m, n, memo);
    }

    private static int go(int[][] cost, int i, int j, Map<Long, Integer> memo) {
        if (i < 0 || j < 0) return Integer.MAX_VALUE;
        if (i == 0 && j == 0) return cost[0][0];
        long key = ((long) i << 32) | j;
        Integer known = memo.get(key);
        if (known != null) return known;
        int best = Math.min(go(cost, i - 1, j - 1, memo), Math.min(go(cost, i - 1, j, memo), go(cost, i, j - 1, memo)));
        memo.put(key, best + cost[i][j]);
        return best + cost[i][j];
    }
}

// candidate count=3 bug: no diagonal moves, only right and down
class MinCost {
    public static int minCost(int[][] cost, int m, int n) {
        int[][] tc = new int[m + 1][n + 1];
        tc[0][0] = cost[0][0];
        for (int i = 1; i <= m; i++) tc[i][0] = tc[i - 1][0] + cost[i][0];
        for (int j = 1; j <= n; j++) tc[0][j] = tc[0][j - 1] + cost[0][j];
        for (int i = 1; i <= m; i++)
            for (int j = 1; j <= n; j++)
                tc[i][j] = Math.min(tc[i - 1][j], tc[i][j - 1]) + cost[i][j];
        return tc[m][n];
    }
}

// candidate count=2 bug: the starting cell is not paid for
class MinCost {
    public static int minCost(int[][] cost, int m, int n) {
        int[][] tc = new int[m + 1][n + 1];
        for (int i = 1; i <= m; i++) tc[i][0] = tc[i - 1][0] + cost[i][0];
        for (int j = 1; j <= n; j++) tc[0][j] = tc[0][j - 1] + cost[0][j];
        for (int i = 1; i <= m; i++)
            for (int j = 1; j <= n; j++)
                tc[i][j] = Math.min(tc[i - 1][j - 1], Math.min(tc[i - 1][j], tc[i][j - 1])) + cost[i][j];
        return tc[m][n];
    }
}

// candidate count=2 bug: greedy, always steps to the cheapest next cell
class MinCost {
    public static int minCost(int[][] cost, int m, int n) {
        int i = 0, j = 0, total = cost[0][0];
        while (i < m || j < n) {
            if (i == m) j++;
            else if (j == n) i++;
            else if (cost[i + 1][j + 1] <= cost[i + 1][j] && cost[i + 1][j + 1] <= cost[i][j + 1]) { i++; j++; }
            else if (cost[i + 1][j] < cost[i][j + 1]) i++;
            else j++;
            total += cost[i][j];
        }
        return total;
    }
}

// candidate count=1 bug: reads m and n as the matrix's size, one cell short
class MinCost {
    public static int minCost(int[][] cost, int m, int n) {
        if (m == 0 || n == 0) return cost[0][0];
        int[][] tc = new int[m][n];
        tc[0][0] = cost[0][0];
        for (int i = 1; i < m; i++) tc[i][0] = tc[i - 1][0] + cost[i][0];
        for (int j = 1; j < n; j++) tc[0][j] = tc[0][j - 1] + cost[0][j];
        for (int i = 1; i < m; i++)
            for (int j = 1; j < n; j++)
                tc[i][j] = Math.min(tc[i - 1][j - 1], Math.min(tc[i - 1][j], tc[i][j - 1])) + cost[i][j];
        return tc[m - 1][n - 1];
    }
}

// candidate count=1 bug: the most expensive path
class MinCost {
    public static int minCost(int[][] cost, int m, int n) {
        int[][] tc = new int[m + 1][n + 1];
        tc[0][0] = cost[0][0];
        for (int i = 1; i <= m; i++) tc[i][0] = tc[i - 1][0] + cost[i][0];
        for (int j = 1; j <= n; j++) tc[0][j] = tc[0][j - 1] + cost[0][j];
        for (int i = 1; i <= m; i++)
            for (int j = 1; j <= n; j++)
                tc[i][j] = Math.max(tc[i - 1][j - 1], Math.max(tc[i - 1][j], tc[i][j - 1])) + cost[i][j];
        return tc[m][n];
    }
}

// candidate count=2 bug: pays for the starting cell twice
class MinCost {
    public static int minCost(int[][] cost, int m, int n) {
        int[][] tc = new int[m + 1][n + 1];
        tc[0][0] = 2 * cost[0][0];
        for (int i = 1; i <= m; i++) tc[i][0] = tc[i - 1][0] + cost[i][0];
        for (int j = 1; j <= n; j++) tc[0][j] = tc[0][j - 1] + cost[0][j];
        for (int i = 1; i <= m; i++)
            for (int j = 1; j <= n; j++)
                tc[i][j] = Math.min(tc[i - 1][j - 1], Math.min(tc[i - 1][j], tc[i][j - 1])) + cost[i][j];
        return tc[m][n];
    }
}

// candidate count=1 bug: throws on a single row or column
class MinCost {
    public static int minCost(int[][] cost, int m, int n) {
        if (m == 0 || n == 0) throw new IllegalArgumentException("need at least two rows and columns");
        int[][] tc = new int[m + 1][n + 1];
        tc[0][0] = cost[0][0];
        for (int i = 1; i <= m; i++) tc[i][0] = tc[i - 1][0] + cost[i][0];
        for (int j = 1; j <= n; j++) tc[0][j] = tc[0][j - 1] + cost[0][j];
        for (int i = 1; i <= m; i++)
            for (int j = 1; j <= n; j++)
                tc[i][j] = Math.min(tc[i - 1][j - 1], Math.min(tc[i - 1][j], tc[i][j - 1])) + cost[i][j];
        return tc[m][n];
    }
}
