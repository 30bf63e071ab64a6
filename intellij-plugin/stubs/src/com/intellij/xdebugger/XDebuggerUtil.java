package com.intellij.xdebugger;

import com.intellij.lang.Language;
import com.intellij.openapi.vfs.VirtualFile;
import com.intellij.xdebugger.breakpoints.XBreakpointType;
import com.intellij.xdebugger.breakpoints.XLineBreakpointType;
import com.intellij.xdebugger.evaluation.EvaluationMode;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/XDebuggerUtil.java
public abstract class XDebuggerUtil {
  public static XDebuggerUtil getInstance() { throw new UnsupportedOperationException("stub"); }
  public abstract XLineBreakpointType<?>[] getLineBreakpointTypes();
  public abstract <T extends XBreakpointType> T findBreakpointType(@NotNull Class<T> typeClass);
  public abstract @Nullable XSourcePosition createPosition(@Nullable VirtualFile file, int line);
  public abstract @NotNull XExpression createExpression(@NotNull String text, Language language, String custom, @NotNull EvaluationMode mode);
}
