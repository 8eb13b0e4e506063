
BoutputJ(п2ЮЊЖ$£њXAЩ?СlК>qФT?јOФ?дк6?ъzјп2љB±J?