
BoutputJ(wº¾pF°¿œr?X‰>ŠrW?Ûÿ?j{&?–§Àd°½‹?