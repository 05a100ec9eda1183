# The real data sets of benchmarks/real_data.py, written as CSV from the R packages
# that ship them (Debian: r-base-core r-cran-mass r-cran-aer r-cran-cardata
# r-cran-survival r-cran-mlbench r-cran-modeldata r-cran-kernlab).  The packages'
# licences (GPL for most) are not the project's, so the CSVs are not committed:
# real_data.py runs this script when they are missing.
#
#   Rscript benchmarks/data/extract_real.R OUTPUT_DIR
#
# Each set is written as the package has it, but for the columns named below: those
# that restate the answer (a follow-up time or date of death, a card holder's
# spending) or identify the row.  Missing values are empty cells; factors are
# written as their labels.

args <- commandArgs(trailingOnly = TRUE)
out <- if (length(args) >= 1) args[1] else "benchmarks/data/real"
dir.create(out, showWarnings = FALSE, recursive = TRUE)

write <- function(data, name) {
  write.csv(data, file.path(out, paste0(name, ".csv")), row.names = FALSE, na = "")
}

# credit scoring
data("credit_data", package = "modeldata")
write(credit_data, "credit_data")                     # Status: good / bad
data("HMDA", package = "AER")
write(HMDA, "hmda")                                   # deny: mortgage denied
data("CreditCard", package = "AER")
# share and expenditure are the card's spending, zero when there is no card
write(CreditCard[, setdiff(names(CreditCard), c("share", "expenditure"))], "creditcard")

# churn
data("wa_churn", package = "modeldata")
write(as.data.frame(wa_churn), "wa_churn")            # churn; total_charges has NAs
data("mlc_churn", package = "modeldata")
write(as.data.frame(mlc_churn), "mlc_churn")

# medical
data("pbc", package = "survival")
pbc <- survival::pbc
# status 0 censored, 1 transplant, 2 dead; id identifies the row, time is the follow-up
write(pbc[, setdiff(names(pbc), c("id", "time"))], "pbc")
data("Aids2", package = "MASS")
# death is the date of death or of the end of follow-up
write(MASS::Aids2[, setdiff(names(MASS::Aids2), "death")], "aids2")

# survey
data("Chile", package = "carData")
write(carData::Chile, "chile")                        # vote: Y N A U, with NAs

# employee attrition (IBM's HR sample: 30 mixed columns)
data("attrition", package = "modeldata")
write(attrition, "attrition")

# insurance (CoIL 2000: 85 socio-demographic and product columns, CARAVAN)
data("ticdata", package = "kernlab")
write(ticdata, "ticdata")

# wide and correlated: 60 sonar energies
data("Sonar", package = "mlbench")
write(Sonar, "sonar")

# ---- the held-out group (real_data.py --group held-out): chosen to check that the
# choices made with the ten sets above in view carry over to data nobody here looked at

# penguins: three species, missing measurements (two rows have none)
data("penguins", package = "modeldata")
write(as.data.frame(penguins), "penguins")
# vehicle silhouettes: 18 shape measures, 4 classes
data("Vehicle", package = "mlbench")
write(Vehicle, "vehicle")
# Wisconsin breast cancer, 9 cytology scores 1-10 with missing values; Id names the sample
data("BreastCancer", package = "mlbench")
write(BreastCancer[, setdiff(names(BreastCancer), "Id")], "breast_cancer_wi")
# Pima diabetes with the impossible zeros as missing values
data("PimaIndiansDiabetes2", package = "mlbench")
write(PimaIndiansDiabetes2, "pima2")
# lending club loans: good or bad (imbalanced), 22 mixed columns
data("lending_club", package = "modeldata")
write(as.data.frame(lending_club), "lending_club")
# cell segmentation: 56 image measures; case is the original train/test split
data("cells", package = "modeldata")
write(as.data.frame(cells)[, setdiff(names(cells), "case")], "cells")
# Alzheimer's disease: 130 protein and genotype columns, 333 rows
data("ad_data", package = "modeldata")
write(as.data.frame(ad_data), "ad_data")
# computing jobs: 4 run-time classes from the protocol, the day and 5 numbers
data("hpc_data", package = "modeldata")
write(as.data.frame(hpc_data), "hpc_data")
# animals: 16 mostly yes/no traits, 7 types, 101 rows
data("Zoo", package = "mlbench")
write(Zoo, "zoo")
# scat: which carnivore, 110 rows with missing values
data("scat", package = "modeldata")
write(as.data.frame(scat), "scat")
# satellite image: 36 spectral values of a 3x3 neighbourhood, 6 soil classes
data("Satellite", package = "mlbench")
write(Satellite, "satellite")
# crabs: species from sex and 5 measures (index numbers the crab within its group)
data("crabs", package = "MASS")
write(MASS::crabs[, setdiff(names(MASS::crabs), "index")], "crabs")
