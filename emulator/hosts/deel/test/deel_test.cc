#include <gtest/gtest.h>
TEST(Deel, Placeholder) {}
