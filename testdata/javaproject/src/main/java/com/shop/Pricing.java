package com.shop;

import java.util.Objects;

/** Prices of the shop, in cents. */
public final class Pricing {
    /** The largest discount, in percent. */
    static final int MAX_PERCENT = 100;

    private Pricing() {
    }

    /**
     * Applies a discount to a price.
     *
     * @param cents the price in cents, at least 0
     * @param percent the discount in percent, from 0 to MAX_PERCENT
     * @return the discounted price in cents, rounded half up to whole cents
     * @throws IllegalArgumentException if percent is outside 0..MAX_PERCENT
     */
    public static long applyDiscount(long cents, int percent) {
        throw new UnsupportedOperationException("not written yet");
    }

    /** Describes a price for people. */
    public static String describe(long cents) {
        return Objects.toString(cents / 100) + "." + String.format("%02d", cents % 100);
    }
}
