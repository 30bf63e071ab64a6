package com.intellij.openapi.ui;

import com.intellij.openapi.project.Project;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

import javax.swing.JComponent;

// Stub bodies keep the real class's observable state (DialogWrapper.java, file id 44373899730
// @0219be6ae4c5c050bef75ffa5566ac9c2a21e345): `showAndGet()` = `show(); return isOK()`, isOK =
// exit code == OK_EXIT_CODE, `close(code)` returns at once when already closed (`if (myClosed)
// return`) and otherwise sets the exit code; the constructors, show and close call
// ensureEventDispatchThread ("could be used only on event dispatch thread"). What the real one
// delegates to its DialogWrapperPeer (DialogWrapperPeerFactory, an application service: the
// modal window and its event loop) the JUnit fakes supply through the package-private hooks
// below (not API: javap -protected, hence the API check, does not see them).
// intellij-community: platform/platform-api/src/com/intellij/openapi/ui/DialogWrapper.java
public abstract class DialogWrapper {
  public static final int OK_EXIT_CODE = 0;
  public static final int CANCEL_EXIT_CODE = 1;
  public static final int CLOSE_EXIT_CODE = CANCEL_EXIT_CODE;
  static volatile java.util.function.Consumer<String> testEdtCheck = api -> { };
  static volatile java.util.function.Consumer<DialogWrapper> testPeerShow = d -> { throw new UnsupportedOperationException("stub"); };
  private volatile String myTitle;
  private volatile int myExitCode = CANCEL_EXIT_CODE;
  private volatile boolean myClosed;
  protected DialogWrapper(@Nullable Project project, boolean canBeParent) { testEdtCheck.accept("DialogWrapper.<init>"); }
  protected void init() { }
  protected abstract @Nullable JComponent createCenterPanel();
  public void setTitle(String title) { myTitle = title; }
  public boolean showAndGet() {
    testEdtCheck.accept("DialogWrapper.show");
    testPeerShow.accept(this);
    return isOK();
  }
  public boolean isOK() { return getExitCode() == OK_EXIT_CODE; }
  public int getExitCode() { return myExitCode; }
  public final void close(int exitCode) {
    testEdtCheck.accept("DialogWrapper.close");
    if (myClosed) return;
    myClosed = true;
    myExitCode = exitCode;
  }
  String testTitle() { return myTitle; }
  boolean testClosed() { return myClosed; }
}
