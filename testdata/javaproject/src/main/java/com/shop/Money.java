package com.shop;

/** Money helpers the pricing code uses. */
public final class Money {
    private Money() {
    }

    /** Rounds an amount in cents to whole cents, halves up. */
    public static long roundCents(double cents) {
        return (long) Math.floor(cents + 0.5);
    }
}
