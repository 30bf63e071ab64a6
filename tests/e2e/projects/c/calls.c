/* Function breakpoints and recorded calls (issue 18): a recursive function called 50 times and
 * 200 calls of which one returns the wrong value. */
#include <stdio.h>

struct account {
    long balance;
    long limit;
};

long fact(int n)
{
    if (n <= 1)
        return 1;
    return n * fact(n - 1);
}

int shipping_cost(int weight)
{
    int cost = 5 + weight / 100;
    if (weight == 685)
        cost = -cost; /* the bug: one input gets a negative cost */
    return cost;
}

void withdraw(struct account *a, long amount)
{
    a->balance -= amount;
}

int main(void)
{
    struct account acct = {100, 50};
    long total = 0;
    for (int i = 0; i < 5; i++)
        total += fact(10);
    int sum = 0;
    for (int w = 0; w < 1000; w += 5)
        sum += shipping_cost(w);
    withdraw(&acct, 30);
    acct.limit = -1; /* the write that corrupts the limit */
    withdraw(&acct, 20);
    printf("total %ld sum %d balance %ld limit %ld\n", total, sum, acct.balance, acct.limit);
    return 0;
}
