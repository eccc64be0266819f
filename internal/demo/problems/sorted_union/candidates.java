// candidate count=3 correct
import java.util.*;

class SortedUnion {
    public static int[] sortedUnion(int[] a, int[] b) {
        TreeSet<Integer> s = new TreeSet<>();
        for (int x : a) s.add(x);
        for (int x : b) s.add(x);
        return s.stream().mapToInt(Integer::intValue).toArray();
    }
}

// candidate count=3 correct
import java.util.*;
import java.util.stream.*;

class SortedUnion {
    public static int[] sortedUnion(int[] a, int[] b) {
        return IntStream.concat(Arrays.stream(a), Arrays.stream(b)).distinct().sorted().toArray();
    }
}

// candidate count=3 bug: keeps duplicates
import java.util.*;

class SortedUnion {
    public static int[] sortedUnion(int[] a, int[] b) {
        int[] out = new int[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        Arrays.sort(out);
        return out;
    }
}

// candidate count=2 bug: first-seen order, not sorted
import java.util.*;

class SortedUnion {
    public static int[] sortedUnion(int[] a, int[] b) {
        LinkedHashSet<Integer> s = new LinkedHashSet<>();
        for (int x : a) s.add(x);
        for (int x : b) s.add(x);
        return s.stream().mapToInt(Integer::intValue).toArray();
    }
}

// candidate count=2 bug: merges as if both arrays were sorted already
import java.util.*;

class SortedUnion {
    public static int[] sortedUnion(int[] a, int[] b) {
        List<Integer> out = new ArrayList<>();
        int i = 0, j = 0;
        while (i < a.length || j < b.length) {
            int x = j >= b.length || i < a.length && a[i] <= b[j] ? a[i++] : b[j++];
            if (out.isEmpty() || out.get(out.size() - 1) != x) out.add(x);
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }
}

// candidate count=1 bug: the numbers in both arrays, not in either
import java.util.*;

class SortedUnion {
    public static int[] sortedUnion(int[] a, int[] b) {
        TreeSet<Integer> s = new TreeSet<>();
        for (int x : a) s.add(x);
        TreeSet<Integer> t = new TreeSet<>();
        for (int x : b) if (s.contains(x)) t.add(x);
        return t.stream().mapToInt(Integer::intValue).toArray();
    }
}

// candidate count=1 bug: decreasing order
import java.util.*;

class SortedUnion {
    public static int[] sortedUnion(int[] a, int[] b) {
        TreeSet<Integer> s = new TreeSet<>(Comparator.reverseOrder());
        for (int x : a) s.add(x);
        for (int x : b) s.add(x);
        return s.stream().mapToInt(Integer::intValue).toArray();
    }
}

// candidate count=2 bug: sorts by absolute value
import java.util.*;

class SortedUnion {
    public static int[] sortedUnion(int[] a, int[] b) {
        TreeSet<Integer> s = new TreeSet<>(Comparator.comparingInt((Integer x) -> Math.abs(x)).thenComparingInt(x -> x));
        for (int x : a) s.add(x);
        for (int x : b) s.add(x);
        return s.stream().mapToInt(Integer::intValue).toArray();
    }
}

// candidate count=1 bug: an empty array gives null
import java.util.*;

class SortedUnion {
    public static int[] sortedUnion(int[] a, int[] b) {
        if (a.length == 0 || b.length == 0) return null;
        TreeSet<Integer> s = new TreeSet<>();
        for (int x : a) s.add(x);
        for (int x : b) s.add(x);
        return s.stream().mapToInt(Integer::intValue).toArray();
    }
}
