import java.util.*;

class SortedUnion {
    public static int[] sortedUnion(int[] a, int[] b) {
        TreeSet<Integer> s = new TreeSet<>();
        for (int x : a) s.add(x);
        for (int x : b) s.add(x);
        int[] out = new int[s.size()];
        int i = 0;
        for (int x : s) out[i++] = x;
        return out;
    }
}
