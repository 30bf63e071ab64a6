package demo;

/** Issue 18 scenarios through the stand-in: a field watchpoint and recorded calls. Lines by `@marker`. */
public class Account {
    private int balance;
    int limit = 100;

    void deposit(int amount) {
        balance += amount; // @add-to-balance
    }

    void corrupt() {
        limit = -1; // @corrupt
    }

    static int fib(int n) {
        if (n < 0) throw new IllegalArgumentException("negative " + n); // @fib-body
        return n < 2 ? n : fib(n - 1) + fib(n - 2);
    }

    public static void main(String[] args) {
        Account acct = new Account();
        int local = 1;
        acct.deposit(50); // @deposit
        acct.deposit(local);
        acct.corrupt();
        // 41 + 5 + 3 calls of fib, then one that raises: 50 recorded calls.
        int f = fib(7) + fib(3) + fib(2); // @fib-calls
        try {
            fib(-1);
        } catch (IllegalArgumentException e) {
            System.out.println("refused: " + e.getMessage());
        }
        System.out.println("fib " + f);
        System.out.println("limit " + acct.limit + " balance " + acct.balance); // @account-print
    }
}
