#!/usr/bin/env Rscript
# Records R's outputs as JSON test data for naive_bayes.py.
#
#   Rscript reference/record_r.R [--out DIR] [--hex FILE]
#
# Writes DIR/e1071.json and DIR/poisson.json (DIR defaults to reference/r next to
# this script). Needs base R and the e1071 package only (Debian: r-cran-e1071);
# JSON is written by hand so that jsonlite is not needed.
#
# Every double is written with sprintf("%.17g") (plus ".0" when that text would
# look like an integer), so any correctly rounding reader (Python's float, json)
# gets back exactly the double R computed. Integers (counts, row indices) are
# written as JSON integers. NA/NaN are written as null. --hex FILE also writes
# every double, in document order, as C99 hex ("%a"), one per line, so that a
# reader can check the round trip bit for bit (see reference/README.md, "## R").
#
# The data sets are read from examples/data/ next to this script's parent.

suppressPackageStartupMessages(library(e1071))

# ---------------------------------------------------------------- paths / args
script_path <- local({
  a <- commandArgs(trailingOnly = FALSE)
  f <- sub("^--file=", "", a[grepl("^--file=", a)])
  if (length(f) != 1) stop("run this file with Rscript")
  normalizePath(f)
})
ref_dir <- dirname(script_path)
root_dir <- dirname(ref_dir)
data_dir <- file.path(root_dir, "examples", "data")

args <- commandArgs(trailingOnly = TRUE)
opt <- function(name, default) {
  i <- match(name, args)
  if (is.na(i)) default else args[[i + 1]]
}
out_dir <- opt("--out", file.path(ref_dir, "r"))
hex_file <- opt("--hex", NA)
dir.create(out_dir, showWarnings = FALSE, recursive = TRUE)

# ---------------------------------------------------------------- JSON writer
# Conventions: a named list is an object, an unnamed list an array. An atomic
# vector of length 1 is a scalar, unless wrapped with arr(), which always makes
# an array (also for length 0 or 1). Factors are written as their labels.
arr <- function(x) structure(list(x), class = "json_array")
# Whole doubles (possibly beyond the 32-bit integer range) written as JSON integers.
whole <- function(x) structure(x, class = "json_whole")

hex_log <- character(0)

fmt_double <- function(x) {
  out <- character(length(x))
  for (i in seq_along(x)) {
    v <- x[[i]]
    if (is.na(v)) {            # NA and NaN
      out[[i]] <- "null"
    } else if (is.infinite(v)) {
      stop("refusing to write an infinite double to JSON")
    } else {
      s <- sprintf("%.17g", v)
      if (!grepl("[.eE]", s)) s <- paste0(s, ".0")
      out[[i]] <- s
      hex_log <<- c(hex_log, sprintf("%a", v))
    }
  }
  out
}

json_string <- function(s) {
  s <- enc2utf8(as.character(s))
  out <- character(length(s))
  for (i in seq_along(s)) {
    if (is.na(s[[i]])) { out[[i]] <- "null"; next }
    t <- gsub("\\", "\\\\", s[[i]], fixed = TRUE)
    t <- gsub("\"", "\\\"", t, fixed = TRUE)
    t <- gsub("\n", "\\n", t, fixed = TRUE)
    t <- gsub("\t", "\\t", t, fixed = TRUE)
    t <- gsub("\r", "\\r", t, fixed = TRUE)
    if (grepl("[\001-\037]", t)) stop("control character in a string")
    out[[i]] <- paste0("\"", t, "\"")
  }
  out
}

json_atoms <- function(x) {
  if (inherits(x, "json_whole")) {
    x <- unclass(x)
    stopifnot(is.numeric(x), all(is.na(x) | (is.finite(x) & x == round(x) & abs(x) <= 2^53)))
    return(ifelse(is.na(x), "null", sprintf("%.0f", x)))
  }
  if (is.factor(x)) x <- as.character(x)
  if (is.character(x)) return(json_string(x))
  if (is.logical(x)) return(ifelse(is.na(x), "null", ifelse(x, "true", "false")))
  if (is.integer(x)) return(ifelse(is.na(x), "null", sprintf("%d", x)))
  if (is.double(x)) return(fmt_double(x))
  stop("cannot write type ", typeof(x))
}

to_json <- function(x, indent = 0) {
  pad <- strrep("  ", indent + 1)
  pad_end <- strrep("  ", indent)
  if (is.null(x)) return("null")
  if (inherits(x, "json_array")) {
    v <- x[[1]]
    if (is.list(v)) return(to_json(unname(v), indent))
    if (length(v) == 0) return("[]")
    return(paste0("[", paste(json_atoms(unname(v)), collapse = ", "), "]"))
  }
  if (is.list(x)) {
    if (length(x) == 0) return(if (is.null(names(x))) "[]" else "{}")
    if (is.null(names(x))) {
      items <- vapply(x, to_json, "", indent = indent + 1)
      # short arrays of scalars / short arrays stay on one line
      if (all(!grepl("\n", items)) && sum(nchar(items)) < 100)
        return(paste0("[", paste(items, collapse = ", "), "]"))
      return(paste0("[\n", paste0(pad, items, collapse = ",\n"), "\n", pad_end, "]"))
    }
    keys <- json_string(names(x))
    items <- vapply(seq_along(x), function(i) to_json(x[[i]], indent + 1), "")
    return(paste0("{\n", paste0(pad, keys, ": ", items, collapse = ",\n"), "\n", pad_end, "}"))
  }
  if (length(x) != 1) return(to_json(arr(x), indent))
  json_atoms(x)
}

write_json <- function(x, path) {
  txt <- enc2utf8(paste0(to_json(x), "\n"))
  con <- file(path, open = "wb")
  on.exit(close(con))
  writeBin(charToRaw(txt), con)
  cat("wrote", path, "\n")
}

# matrix -> list of rows (each an array)
rows_of <- function(m) lapply(seq_len(nrow(m)), function(i) arr(unname(m[i, ])))

# ---------------------------------------------------------------- e1071 cases
read_data <- function(file) {
  read.csv(file.path(data_dir, file), check.names = FALSE, stringsAsFactors = FALSE,
           encoding = "UTF-8", fileEncoding = "UTF-8", na.strings = c("", "NA"))
}

# Factor with levels in first-seen order (locale independent).
as_factor <- function(v) {
  v <- as.character(v)
  factor(v, levels = unique(v[!is.na(v)]))
}

# The per-feature probabilities predict.naiveBayes uses, *before* its
# "prob <= eps -> threshold" step, to find which (row, feature, class) cells
# the threshold replaces. Mirrors e1071 1.7's predict.naiveBayes.
threshold_hits <- function(model, newdata, eps = 0, threshold = 0.001) {
  classes <- model$levels
  lapply(seq_len(nrow(newdata)), function(r) {
    hits <- list()
    for (f in names(model$tables)) {
      v <- newdata[[f]][[r]]
      if (is.na(v)) next
      if (model$isnumeric[[f]]) {
        msd <- model$tables[[f]]
        sd <- msd[, 2]
        sd[sd <= eps] <- threshold
        p <- dnorm(v, msd[, 1], sd)
      } else {
        v <- as.character(v)
        if (!(v %in% colnames(model$tables[[f]]))) next   # unseen level -> NA -> skipped
        p <- model$tables[[f]][, v]
      }
      for (k in which(p <= eps)) hits[[length(hits) + 1]] <- arr(c(f, classes[[k]]))
    }
    hits
  })
}

# Row values for the JSON: numbers stay numbers, factors become labels.
row_records <- function(newdata) {
  lapply(seq_len(nrow(newdata)), function(r) {
    lapply(setNames(names(newdata), names(newdata)), function(f) {
      v <- newdata[[f]][[r]]
      if (is.factor(v)) v <- as.character(v)
      if (is.na(v)) NULL else v
    })
  })
}

fit_record <- function(X, y, laplace, newdata, row_ids, row_note) {
  m <- naiveBayes(X, y, laplace = laplace)
  classes <- m$levels
  features <- lapply(names(X), function(f) {
    t <- m$tables[[f]]
    if (m$isnumeric[[f]]) {
      list(name = f, kind = "gaussian",
           n = arr(as.integer(tapply(!is.na(X[[f]]), y, sum))),
           mean = arr(unname(t[, 1])), sd = arr(unname(t[, 2])))
    } else {
      list(name = f, kind = "categorical", levels = arr(colnames(t)),
           counts = rows_of(unclass(table(y, X[[f]]))),
           probabilities = rows_of(unclass(t)))
    }
  })
  raw <- predict(m, newdata, type = "raw")
  raw0 <- suppressWarnings(predict(m, newdata, type = "raw", threshold = 0))
  cls <- predict(m, newdata, type = "class")
  hits <- threshold_hits(m, newdata)
  affected <- which(vapply(hits, length, 0L) > 0) - 1L
  sds <- unlist(lapply(names(X)[m$isnumeric], function(f) m$tables[[f]][, 2]))
  list(
    laplace = laplace,
    apriori_counts = arr(as.integer(m$apriori)),
    prior = arr(as.numeric(m$apriori) / sum(m$apriori)),
    features = features,
    sd_replaced_by_threshold = any(sds <= 0, na.rm = TRUE),
    predictions = list(
      rows_note = row_note,
      row_ids = arr(as.integer(row_ids)),
      rows = row_records(newdata),
      posterior = rows_of(unname(raw)),
      predicted = arr(as.character(cls)),
      threshold_hits = lapply(hits, function(h) h),
      rows_with_threshold_hits = arr(as.integer(affected)),
      posterior_threshold0 = rows_of(unname(raw0))
    )
  )
}

e1071_case <- function(name, file, target, ignore = character(0), factor_cols = character(0),
                       laplaces, rows = c("all", "distinct"), extra_rows = NULL,
                       modify = NULL, note = NULL) {
  rows <- match.arg(rows)
  df <- read_data(file)
  if (!is.null(modify)) df <- modify(df)
  feats <- setdiff(names(df), c(target, ignore))
  X <- df[, feats, drop = FALSE]
  for (f in feats) {
    if (is.character(X[[f]]) || f %in% factor_cols) X[[f]] <- as_factor(X[[f]])
  }
  y <- as_factor(df[[target]])
  if (rows == "all") {
    newdata <- X
    row_ids <- seq_len(nrow(X)) - 1L
    row_note <- "every data row, in file order; row_ids are 0-based data-row indices"
  } else {
    key <- do.call(paste, c(lapply(X, as.character), sep = "\r"))
    first <- !duplicated(key)
    newdata <- X[first, , drop = FALSE]
    row_ids <- which(first) - 1L
    row_note <- paste("every distinct feature row, in order of first appearance;",
                      "row_ids are the 0-based data-row indices of the first appearance")
  }
  rownames(newdata) <- NULL
  if (!is.null(extra_rows)) {
    ex <- extra_rows(X)
    newdata <- rbind(newdata, ex)
    row_ids <- c(row_ids, rep(-1L, nrow(ex)))
    row_note <- paste(row_note, "; rows with row_id -1 are made-up extra rows (see note)")
  }
  out <- list(
    file = paste0("examples/data/", file),
    target = target,
    ignored_columns = arr(ignore),
    features = arr(feats),
    feature_kinds = arr(ifelse(vapply(X, is.numeric, NA), "gaussian", "categorical")),
    classes = arr(levels(y)),
    n_rows = nrow(X)
  )
  if (!is.null(note)) out$note <- note
  out$fits <- lapply(laplaces, function(l) fit_record(X, y, l, newdata, row_ids, row_note))
  out
}

cat("recording e1071 ...\n")
e1071_out <- list(
  r_version = R.version.string,
  e1071_version = as.character(packageVersion("e1071")),
  calls = paste("m <- e1071::naiveBayes(x = X, y = y, laplace = L) (default method, no na.action);",
                "posterior = predict(m, newdata, type = \"raw\") with threshold = 0.001, eps = 0;",
                "predicted = predict(m, newdata, type = \"class\");",
                "posterior_threshold0 = predict(m, newdata, type = \"raw\", threshold = 0)"),
  conventions = list(
    levels = "factor levels (categorical values and classes) are in order of first appearance in the file",
    probabilities = "probabilities[c][j] = P(levels[j] | classes[c]); counts[c][j] the matching count (NA excluded)",
    gaussian = "mean[c], sd[c] per class (sd with divisor n - 1, NA excluded); n[c] the number of non-missing values",
    posterior = "posterior[i][c] for prediction row i and class c, in the order of classes",
    rows = "rows[i] maps feature name to value; a missing value is null",
    threshold_hits = paste("threshold_hits[i] lists [feature, class] pairs whose probability/density was <= eps = 0",
                           "and was replaced by threshold = 0.001 in 'posterior';",
                           "rows_with_threshold_hits lists the prediction-row positions (0-based) that have any"),
    posterior_threshold0 = paste("the same prediction with threshold = 0, i.e. exact zeros kept as log(0) = -Inf.",
                                 "R normalises with 1/sum(exp(L - L[c])), which is NaN (written null) for every class c",
                                 "whose L[c] is -Inf, because exp(-Inf - -Inf) is NaN; the other classes are exact",
                                 "(the limit for a null entry is 0 whenever some class is finite)"),
    number_format = "doubles are sprintf('%.17g'); they read back exactly"
  ),
  datasets = list(
    titanic = e1071_case("titanic", "titanic.csv", "survived", laplaces = c(0, 1), rows = "distinct"),
    iris = e1071_case("iris", "iris.csv", "class", laplaces = 0, rows = "all"),
    watermelon3 = e1071_case("watermelon3", "watermelon3.csv", "好瓜", ignore = "编号",
                             laplaces = c(0, 1), rows = "all"),
    watermelon3_missing = e1071_case(
      "watermelon3_missing", "watermelon3.csv", "好瓜", ignore = "编号", laplaces = c(0, 1), rows = "all",
      modify = function(df) {
        df[1, "色泽"] <- NA; df[6, "密度"] <- NA; df[10, "纹理"] <- NA
        df[15, "含糖率"] <- NA; df[17, "敲声"] <- NA; df[17, "密度"] <- NA
        df
      },
      note = paste("watermelon3.csv with six cells set to missing before fitting and predicting:",
                   "data rows (0-based) 0 色泽, 5 密度, 9 纹理, 14 含糖率, 16 敲声 and 16 密度.",
                   "e1071 leaves them out of the counts, means and sds, and skips them when predicting.")),
    credit_approval = e1071_case(
      "credit_approval", "credit_approval.csv", "approved",
      factor_cols = c("has_job", "has_house", "education"), laplaces = 1, rows = "all",
      extra_rows = function(X) {
        lv <- function(f, v) factor(v, levels = levels(X[[f]]))
        data.frame(has_job = lv("has_job", c(NA, "1", "0", NA)),
                   has_house = lv("has_house", c("1", NA, "0", NA)),
                   education = lv("education", c("T", NA, NA, NA)))
      },
      note = paste("every column read as a factor (has_job and has_house hold 0/1, the class approved holds 0/1);",
                   "4 extra prediction rows with missing values, the last one all missing (posterior = prior)."))
  )
)
write_json(e1071_out, file.path(out_dir, "e1071.json"))

# ---------------------------------------------------------------- Poisson
cat("recording poisson ...\n")
xs <- c(0, 1, 2, 3, 5, 10, 17, 100, 1000, 12345, 1e6, 1e9, 1e15, 2^53)
lambdas <- c(1e-300, 1e-10, 0.001, 0.5, 1, 2.5, 10, 99.5, 1000, 1e6, 1e9, 1e15, 1e300)
grid <- outer(xs, lambdas, function(x, l) dpois(x, l, log = TRUE))
stopifnot(all(is.finite(grid)))

# Small made-up count data set. Every (class, feature) sum is > 0, so lambda is
# never 0 at laplace = 0 (where naivebayes would add a pseudo-count, see README).
counts <- data.frame(
  class = c(rep("a", 8), rep("b", 7), rep("c", 6)),
  f1 = c(2, 1, 3, NA, 2, 0, 4, 2,   6, 7, 5, 8, 6, 4, 9,   3, 2, 4, 3, 1, NA),
  f2 = c(5, 6, 4, 7, 5, 3, 6, 4,    1, 0, 2, 1, 0, 2, 1,   3, NA, 2, 4, 3, NA),
  f3 = c(1, 0, 2, 1, 0, 1, NA, 1,   3, 2, NA, 4, 3, 2, 3,  8, 9, 7, NA, 10, 6),
  stringsAsFactors = FALSE
)
pfeats <- c("f1", "f2", "f3")
int_matrix <- function(df) { m <- as.matrix(df); storage.mode(m) <- "integer"; m }
extra <- data.frame(f1 = c(0, 20, 0, 3, NA, 40),
                    f2 = c(0, 0, 0, NA, NA, 0),
                    f3 = c(0, 0, 30, 5, NA, 0))
newx <- rbind(counts[, pfeats], extra)

# Base-R transcription of the documented model of naivebayes::poisson_naive_bayes
# (the package itself is not installed).
poisson_fit <- function(x, y, laplace) {
  classes <- unique(y)
  n_c <- sapply(classes, function(k) sum(y == k))
  lambda <- t(sapply(classes, function(k) {
    xk <- x[y == k, , drop = FALSE]
    sapply(names(x), function(f) (sum(xk[[f]], na.rm = TRUE) + laplace) / sum(!is.na(xk[[f]])))
  }))
  list(classes = classes, n = n_c, prior = n_c / sum(n_c), lambda = lambda,
       n_obs = t(sapply(classes, function(k) colSums(!is.na(x[y == k, , drop = FALSE])))))
}
poisson_predict <- function(fit, newx) {
  joint <- t(sapply(seq_len(nrow(newx)), function(i) {
    sapply(seq_along(fit$classes), function(k) {
      s <- log(fit$prior[[k]])
      for (f in names(newx)) {
        v <- newx[[f]][[i]]
        if (!is.na(v)) {
          lp <- dpois(v, fit$lambda[k, f], log = TRUE)
          # the package replaces log-likelihoods <= log(.Machine$double.xmin) by log(0.001)
          stopifnot(lp > log(.Machine$double.xmin))
          s <- s + lp
        }
      }
      s
    })
  }))
  post <- t(apply(joint, 1, function(l) { e <- exp(l - max(l)); e / sum(e) }))
  list(joint = joint, posterior = post)
}
pfits <- lapply(c(0, 0.5, 1), function(l) {
  fit <- poisson_fit(counts[, pfeats], counts$class, l)
  pr <- poisson_predict(fit, newx)
  list(laplace = l,
       class_counts = arr(as.integer(fit$n)),
       prior = arr(unname(fit$prior)),
       n_observed = rows_of(matrix(as.integer(fit$n_obs), nrow(fit$n_obs))),
       lambda = rows_of(unname(fit$lambda)),
       joint_log = rows_of(unname(pr$joint)),
       posterior = rows_of(unname(pr$posterior)),
       predicted = arr(fit$classes[apply(pr$posterior, 1, which.max)]))
})
poisson_out <- list(
  r_version = R.version.string,
  dpois = list(
    call = "dpois(x, lambda, log = TRUE)",
    x = arr(whole(xs)),
    lambda = arr(lambdas),
    log_density = rows_of(grid),
    layout = "log_density[i][j] = dpois(x[i], lambda[j], log = TRUE)"
  ),
  poisson_naive_bayes = list(
    note = paste("NOT the naivebayes package (not installed): a base-R transcription of the documented model of",
                 "naivebayes::poisson_naive_bayes. lambda[c][j] = (sum of feature j over class c's rows where it",
                 "is not NA + laplace) / n_observed[c][j]; prior = class proportions (class_counts / N);",
                 "joint_log[i][c] = log(prior[c]) + sum over non-missing features j of",
                 "dpois(x[i][j], lambda[c][j], log = TRUE); posterior = joint_log normalised",
                 "(exp(joint_log - max) / sum)."),
    classes = arr(unique(counts$class)),
    features = arr(pfeats),
    train = list(
      y = arr(counts$class),
      x = rows_of(int_matrix(counts[, pfeats]))
    ),
    predict_rows_note = paste("the 21 training rows in order, then 6 made-up rows",
                              "(the 5th is all missing, so its posterior is the prior); null = missing"),
    predict_x = rows_of(int_matrix(newx)),
    fits = pfits
  )
)
write_json(poisson_out, file.path(out_dir, "poisson.json"))

if (!is.na(hex_file)) {
  writeLines(hex_log, hex_file)
  cat("wrote", length(hex_log), "hex doubles to", hex_file, "\n")
}
