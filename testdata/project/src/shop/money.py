"""Money helpers."""
from decimal import ROUND_HALF_UP, Decimal


def round_cents(value: float) -> float:
    """Round value to cents, halves away from zero."""
    return float(Decimal(str(value)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))
