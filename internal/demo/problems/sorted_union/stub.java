import java.util.*;

class SortedUnion {
    /**
     * Return every number that occurs in a or in b, once each, in
     * increasing order.
     */
    public static int[] sortedUnion(int[] a, int[] b) {
    }
}
