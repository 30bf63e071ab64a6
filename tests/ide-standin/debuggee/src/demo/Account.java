package demo;

/** Issue 18 scenarios through the stand-in: a field watchpoint and recorded calls. Lines by `@marker`. */
public class Account {
    private int balance;
    int limit = 100;

    void deposit(int amount) {
        balance += amount; // @deposit-body
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
        System.out.println("limit " + acct.limit + " balance " + acct.balance); // @account-print
    }
}
