from shop.pricing import with_vat


def test_with_vat():
    assert with_vat(10.0) == 12.0
