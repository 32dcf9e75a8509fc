#include <gtest/gtest.h>
TEST(DeelDiff, Placeholder) {}
